/** JMH benchmarks of ddf's filters beside the alternatives users pick (Guava's BloomFilter, an exact hash set). */
package io.ddf.bench.jmh;
