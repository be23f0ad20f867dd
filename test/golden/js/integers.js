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

function integers($state, out, a, b, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let i = 0, tmp = 0, q = 0, tmp_1 = 0, r = 0, tmp_2 = 0, u = 0, m = 0, tmp_3 = 0, tmp_4 = 0;
    i = $tx;
    if ((i >>> 0) >= (a.length >>> 0)) {
      gpuc_report_exception$0($state, 1, 0, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    tmp = a[i];
    if ((i >>> 0) >= (b.length >>> 0)) {
      gpuc_report_exception$0($state, 2, 1, i, b.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    q = (tmp / b[i]) | 0;
    if ((i >>> 0) >= (a.length >>> 0)) {
      gpuc_report_exception$0($state, 1, 2, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    tmp_1 = a[i];
    if ((i >>> 0) >= (b.length >>> 0)) {
      gpuc_report_exception$0($state, 2, 3, i, b.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    r = (tmp_1 % b[i]) | 0;
    if ((i >>> 0) >= (a.length >>> 0)) {
      gpuc_report_exception$0($state, 1, 4, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    tmp_2 = a[i] >>> 0;
    if ((i >>> 0) >= (b.length >>> 0)) {
      gpuc_report_exception$0($state, 2, 5, i, b.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    u = tmp_2 >>> ((b[i] & 7) >>> 0);
    if ((i >>> 0) >= (a.length >>> 0)) {
      gpuc_report_exception$0($state, 1, 6, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    m = Math.imul(a[i], (-1640531535));
    tmp_4 = (((((q + r) | 0) + ((u > 4294967000) ? 1 : 0)) | 0) + (m ^ (m >> 15))) | 0;
    if ((i >>> 0) >= (a.length >>> 0)) {
      gpuc_report_exception$0($state, 1, 7, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    tmp_3 = a[i];
    if ((i >>> 0) >= (out.length >>> 0)) {
      gpuc_report_exception$0($state, 3, 8, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
      throw $trap;
    }
    out[i] = (tmp_4 + (((tmp_3 < 0) ? true : ((tmp_3 >>> 0) < u)) ? 2 : 0)) | 0;
  }
}
