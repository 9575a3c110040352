// The C entry points of the GPU implementation.
#include "ExportApi.inc"
