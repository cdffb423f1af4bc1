/**
 * The RESP protocol, nothing of the application: the decoder of requests and its limits, the one writer of replies
 * (RESP2 or RESP3) and its encoding, the reply values and error texts commands share, and the barrier a reply that
 * acknowledges a write waits behind.
 */
package io.ddf.ingest.resp;
