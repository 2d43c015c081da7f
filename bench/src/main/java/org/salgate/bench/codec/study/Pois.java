package org.salgate.bench.codec.study;

import java.io.Serializable;
import java.util.List;

/** A set of points of interest, the unit the mobile study sent in one answer. */
public record Pois(List<Poi> items) implements Serializable {

    public Pois {
        items = List.copyOf(items);
    }
}
