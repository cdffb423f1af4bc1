/**
 * What the daemon serves and how one command runs: the command table (one declaration per command, read by the
 * conductor, ACL and COMMAND alike), the conductor, and the session a handler is given.
 */
package io.ddf.ingest.dispatch;
