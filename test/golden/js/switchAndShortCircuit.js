"use strict";
function switchAndShortCircuit(out, x, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let i = 0, s = 0;
    i = $tx;
    s = 0;
    switch (i & 3) {
      case 0:
      {
        s = 1;
        break;
      }
      case 1:
      case 2:
      {
        s = 2;
      }
      default:
      {
        s = ((s + 10) | 0);
        break;
      }
    }
    if ((i < x.length) && (x[i] > 0)) {
      s = ((s + 100) | 0);
    }
    out[i] = s;
  }
}
