/* Only what rtcuda-tune reads from a main program: the default size. */
int main(int argc, char *argv[])
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    return n < 0;
}
