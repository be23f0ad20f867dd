"use strict";
function folding(out, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let k = 0;
    k = 0.7853981852531433;
    out[$tx] = Math.fround(Math.fround(Math.sin(Math.fround(k * Math.fround($tx)))) + 17);
  }
}
