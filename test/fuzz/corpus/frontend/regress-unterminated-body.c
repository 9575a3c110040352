void k(int n, int *restrict c) {
  for (int i = 0; i < n; i++) {
    int v = i, s = 0;
    while (v >k(int n, int *restrict c) {
  for (int i = 0; i < 