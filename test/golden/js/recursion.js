"use strict";
function fib$0(n) {
  let tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0;
  if (n < 2) {
    tmp_3 = n;
  } else {
    tmp = fib$0(((n - 1) | 0));
    tmp_2 = tmp;
    tmp_1 = fib$0(((n - 2) | 0));
    tmp_3 = ((tmp_2 + tmp_1) | 0);
  }
  return tmp_3;
}

function recursion(out, $gx, $gy, $gz, $dx, $dy, $dz) {
  for (let $bz = 0; $bz < $gz; $bz++)
  for (let $by = 0; $by < $gy; $by++)
  for (let $bx = 0; $bx < $gx; $bx++)
  for (let $tz = 0; $tz < $dz; $tz++)
  for (let $ty = 0; $ty < $dy; $ty++)
  for (let $tx = 0; $tx < $dx; $tx++) {
    let tmp = 0;
    tmp = fib$0($tx);
    out[$tx] = tmp;
  }
}
