package org.salgate.bench.codec.study;

import java.io.Serializable;
import java.util.Objects;

/** A postal address, part of a {@link Person}. */
public record Address(String street, String city, String zip, String country) implements Serializable {

    public Address {
        Objects.requireNonNull(street, "street");
        Objects.requireNonNull(city, "city");
        Objects.requireNonNull(zip, "zip");
        Objects.requireNonNull(country, "country");
    }
}
