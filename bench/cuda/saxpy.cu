// saxpy as examples/saxpy.ts writes it: y = a·x + y, one thread per element, guarded by y's length.
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
