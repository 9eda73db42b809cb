/*-------------------------------------------------------------------------
 *
 * src/am/channels/notify.h
 *	  Notifications a trusted session may not send (notify.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_NOTIFY_H
#define LABELAM_NOTIFY_H

#include "catalog/objectaccess.h"
#include "nodes/plannodes.h"

/* ProcessUtility: NOTIFY */
extern void labelheap_notify_utility(PlannedStmt *pstmt);

/* object_access_hook: pg_notify() */
extern void labelheap_notify_object_access(ObjectAccessType access,
										   Oid classId, Oid objectId);

#endif							/* LABELAM_NOTIFY_H */
