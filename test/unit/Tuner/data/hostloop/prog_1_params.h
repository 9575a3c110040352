// Tuning parameters of kernel 'prog_1'.
#pragma once
#ifndef PROG_1_BLOCKSIZE
#define PROG_1_BLOCKSIZE 256
#endif
