/**
 * The workloads of the serialization studies the codec bench repeats: the mobile study's points of
 * interest and the recursive {@code Person} graph of the echo study, built from a seed.
 */
package org.salgate.bench.codec.study;
