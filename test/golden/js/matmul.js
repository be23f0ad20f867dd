"use strict";
function matmul(c, a, b, n, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  $thread: for (let $tx = 0; $tx < $dx; $tx++) {
    let row = 0, col = 0, acc = 0, k = 0;
    row = ((Math.imul($by, $dy) + $ty) | 0);
    col = ((Math.imul($bx, $dx) + $tx) | 0);
    if ((row >= n) || (col >= n)) {
      continue $thread;
    }
    acc = 0;
    k = 0;
    for (; k < n; k = (k + 1) | 0) {
      acc = Math.fround(acc + Math.fround(a[((Math.imul(row, n) + k) | 0)] * b[((Math.imul(k, n) + col) | 0)]));
    }
    c[((Math.imul(row, n) + col) | 0)] = acc;
  }
}
