/**
 * The ACL command, over the {@code io.ddf.ingest.acl} model.
 */
package io.ddf.ingest.commands.acl;
