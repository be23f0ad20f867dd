// The tiled matrix multiply of examples/matmul.ts: 16×16 tiles of A and B staged in shared memory.
extern "C" __global__ void matmul(float *c, const float *a, const float *b, int n) {
  __shared__ float as[256];
  __shared__ float bs[256];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    as[ty * 16 + tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f;
    bs[ty * 16 + tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; k++) acc += as[ty * 16 + k] * bs[k * 16 + tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}
