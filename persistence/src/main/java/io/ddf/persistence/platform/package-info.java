/**
 * What the platform gives the files above it, each behind one class: Linux calls through JNA ({@link
 * io.ddf.persistence.platform.Libc}: syncfs, fallocate, membarrier) and the descriptor of an open file ({@link
 * io.ddf.persistence.platform.Descriptors}), raw off-heap access ({@link io.ddf.persistence.platform.RawMemory}),
 * the close guard's process-wide fence ({@link io.ddf.persistence.platform.AsymmetricFence}), the advice a
 * mapping gets ({@link io.ddf.persistence.platform.MappingAdvice}: huge pages, prefaulting) and the JVM flags the
 * mapped files need ({@link io.ddf.persistence.platform.JvmFlags}). Nothing here knows a filter file's format; the
 * package was cut out of {@code io.ddf.persistence} when that package passed issue 28's bound of 30 files.
 */
package io.ddf.persistence.platform;
