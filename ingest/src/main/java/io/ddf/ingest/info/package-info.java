/**
 * What the daemon says of itself: INFO, CONFIG GET's values, its start line, and the Prometheus endpoint.
 */
package io.ddf.ingest.info;
