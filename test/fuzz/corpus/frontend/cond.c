void k(int n, int m, float a[restrict n][m], const float b[restrict n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (b[i][j] > 0 && i > 2) a[i][j] = b[i][j] * 2; else a[i][j] = -b[i][j];
}
