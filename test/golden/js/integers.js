"use strict";
function integers(out, a, b, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let i = 0, q = 0, r = 0, u = 0, m = 0, tmp = 0, tmp_1 = 0;
    i = $tx;
    q = ((a[i] / b[i]) | 0);
    r = ((a[i] % b[i]) | 0);
    u = ((a[i] >>> 0) >>> ((b[i] & 7) >>> 0));
    m = Math.imul(a[i], (-1640531535));
    tmp_1 = ((((((q + r) | 0) + ((u > 4294967000) ? 1 : 0)) | 0) + (m ^ (m >> 15))) | 0);
    tmp = a[i];
    out[i] = ((tmp_1 + (((tmp < 0) ? true : ((tmp >>> 0) < u)) ? 2 : 0)) | 0);
  }
}
