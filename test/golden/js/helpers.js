"use strict";
function sign3$0(v) {
  if (v > 0) {
    return 1;
  }
  if (v < 0) {
    return -1;
  }
  return 0;
}

function sign3$1(v) {
  if (v > 0) {
    return 1;
  }
  if (v < 0) {
    return -1;
  }
  return 0;
}

function helpers(out, x, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let i = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0, tmp_4 = 0, lerp_a = 0, lerp_b = 0, lerp_t = 0;
    i = $tx;
    lerp_a = x[i];
    lerp_b = 1;
    lerp_t = 0.25;
    tmp = Math.fround(lerp_a + Math.fround(Math.fround(Math.fround(lerp_b) - lerp_a) * lerp_t));
    tmp_2 = tmp;
    tmp_1 = sign3$0(x[i]);
    tmp_4 = Math.fround(tmp_2 * Math.fround(tmp_1));
    tmp_3 = sign3$1(((i - 2) | 0));
    out[i] = Math.fround(tmp_4 + Math.fround(tmp_3));
  }
}
