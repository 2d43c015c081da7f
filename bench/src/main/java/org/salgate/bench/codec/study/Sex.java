package org.salgate.bench.codec.study;

/** The enum field of the {@link Person} graph. */
public enum Sex {
    FEMALE, MALE
}
