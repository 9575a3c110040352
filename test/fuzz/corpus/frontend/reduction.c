float k(int n, const float *restrict a) {
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
