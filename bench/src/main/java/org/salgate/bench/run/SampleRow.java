package org.salgate.bench.run;

import org.salgate.bench.sample.ResourceSample;

/** One resource sample of the server, tagged with the cell it was taken in. */
public record SampleRow(CellKey key, int rep, ResourceSample sample) {}
