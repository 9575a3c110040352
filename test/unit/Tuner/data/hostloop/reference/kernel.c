void prog(int n, int steps, double *x) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) x[i] = x[i] * 2.0 + steps;
    for (int i = 0; i < n; i++)
      if (i != t) x[i] += x[t];
  }
  for (int i = 1; i < n; i++) x[i] += x[i - 1];
}
