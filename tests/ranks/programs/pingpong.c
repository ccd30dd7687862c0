/* Rank 0 sends a buffer to rank 1 and rank 1 sends it back, so that a known number of bytes
 * crosses whatever link joins them (the two-host test counts them on the veth).
 *
 *   mpicc pingpong.c -o pingpong && mpirun -n 2 ./pingpong BYTES
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long bytes = argc > 1 ? atol(argv[1]) : 1 << 20;
  char* buffer = calloc((size_t)bytes, 1);
  if (rank == 0) {
    for (long i = 0; i < bytes; ++i) buffer[i] = (char)(i * 7);
    MPI_Send(buffer, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buffer, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long bad = 0;
    for (long i = 0; i < bytes; ++i) bad += buffer[i] != (char)(i * 7 + 1);
    printf("pingpong %ld bytes each way, %ld wrong\n", bytes, bad);
    if (bad) MPI_Abort(MPI_COMM_WORLD, 1);
  } else if (rank == 1) {
    MPI_Recv(buffer, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (long i = 0; i < bytes; ++i) buffer[i] = (char)(buffer[i] + 1);
    MPI_Send(buffer, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
