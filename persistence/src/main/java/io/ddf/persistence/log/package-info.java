/**
 * The change log (issue 31, {@code FORMAT-LOG.md} beside {@code FORMAT.md}): an append-only directory of segment
 * files recording each acknowledged change as what replaying it needs; the header fields that tie a filter file to
 * it (checkpoint position, boot id at open, the filter's number); the boot id; what an open and a checkpoint did.
 */
package io.ddf.persistence.log;
