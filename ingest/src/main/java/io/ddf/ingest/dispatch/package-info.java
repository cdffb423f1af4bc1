/**
 * What the daemon serves and how one command runs: the command table (one declaration per command, read by the
 * conductor, ACL and COMMAND alike, with each command's counters), the conductor, and the session a handler is
 * given (one client: its replies, user, MULTI and what CLIENT LIST shows; the connection behind it is reached only
 * for what outlives a command).
 */
package io.ddf.ingest.dispatch;
