function a(x: Float32Array, n: number) {
  const i = 3;
  if (!(i < n)) return;
  let f = 1.0;
  let big = 2147483647 + 1;
  if (i > 2) { x[0] = 1; } else { x[1] = 2; }
  x[i] = i < n ? f : 2.50;
  switch (i) { case 1: x[0] = 1; case 2: x[1] = 1; break; default: x[2] = 3; }
  let j = 0; while (j < 3) { j++; }
  do { j--; } while (j > 0);
  const u = -1 >>> 0;
  x[2] = u; x[3] = -(-2147483648);
}
console.log(a.toString());
