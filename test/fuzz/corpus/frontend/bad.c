void k(int n, float *a) {
  for (int i = 0; i < n; i++) a[i] = a[i +;
}
