#include "postgres.h"
#include "labelam.h"
void
labelam_am_init(void)
{
}
