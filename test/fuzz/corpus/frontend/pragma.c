#pragma rtcuda kernel
void k(int n, double x[restrict n]) {
#pragma rtcuda parallel
  for (int i = 1; i < n; i++) x[i] = x[i - 1] + 1.0;
}
