/**
 * One RESP connection: the Netty handler, its state and verdicts, and the registry of every connection.
 */
package io.ddf.ingest.session;
