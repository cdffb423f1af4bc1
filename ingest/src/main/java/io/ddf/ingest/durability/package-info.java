/**
 * {@code serve --fsync}: the sync policy the filters are opened with, and the group commit that holds a reply which
 * acknowledges a write until the write is on the device.
 */
package io.ddf.ingest.durability;
