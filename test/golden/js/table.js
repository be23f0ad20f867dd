"use strict";
function table(out, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let i = 0;
    i = $tx;
    out[i] = Math.fround($g0_WEIGHTS[((i % 3) | 0)] * 3);
  }
}
