"use strict";
function gpuc_report_exception$0(state, code, loc, a, b, $bx, $by, $bz, $tx, $ty, $tz) {
  let tmp = 0;
  { const $a = state, $i = 0, $o = $a[$i]; $a[$i] = $o === 0 ? code : $o; tmp = $o; }
  if (tmp === 0) {
    state[1] = loc;
    state[2] = a;
    state[3] = b;
    state[4] = $tx;
    state[5] = $ty;
    state[6] = $tz;
    state[7] = $bx;
    state[8] = $by;
    state[9] = $bz;
  }
}

function loops($state, out, n, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let i = 0, acc = 0, j = 0, k = 0, d = 0;
    i = $tx;
    acc = 0;
    j = 0;
    for (; j < n; j = (j + 1) | 0) {
      if (((j % 3) | 0) === 0) {
        continue;
      }
      if (j > 20) {
        break;
      }
      acc = Math.fround(acc + Math.fround(Math.fround(j) * 0.5));
    }
    k = 0;
    for (; Math.imul(k, k) < i; ) {
      k = (k + 1) | 0;
    }
    d = 0;
    for (; ;) {
      $body0: {
        d = (d + 2) | 0;
      }
      if (!(d < k)) break;
    }
    if ((i >>> 0) >= (out.length >>> 0)) {
      gpuc_report_exception$0($state, 1, 0, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    out[i] = Math.fround(Math.fround(acc + Math.fround(k)) + Math.fround(d));
  }
}
