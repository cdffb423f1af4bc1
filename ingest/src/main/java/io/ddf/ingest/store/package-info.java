/**
 * The daemon's keyspace: the filters of the data directory (fixed-size ones and, through the registry, the ones that
 * grow), their creation off the event loop, key names and types. Answers typed results and exceptions, never RESP.
 */
package io.ddf.ingest.store;
