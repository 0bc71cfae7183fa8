/* Deprecated: the queue under its costgate 0.2 names (`struct cq_queue`, `cq_queue_publish`, ...),
 * for code that still says `#include "queue.h"`. Kept for one more minor release; new code
 * includes <costgate/queue.h> and uses the costgate_queue names. Macros: one type either way. */
#ifndef COSTGATE_QUEUE_COMPAT_H
#define COSTGATE_QUEUE_COMPAT_H

#include <costgate/queue.h>

#define cq_queue costgate_queue
#define cq_delivery costgate_delivery
#define cq_queue_init costgate_queue_init
#define cq_queue_publish costgate_queue_publish
#define cq_queue_next costgate_queue_next
#define cq_queue_settle costgate_queue_settle
#define cq_queue_ready costgate_queue_ready
#define cq_queue_release costgate_queue_release
#define CQ_QUEUE_INIT COSTGATE_QUEUE_INIT

#endif
