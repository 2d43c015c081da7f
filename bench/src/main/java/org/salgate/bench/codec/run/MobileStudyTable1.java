package org.salgate.bench.codec.run;

import java.util.List;

/**
 * The mobile study's Table 1: the size in kB of an answer of 1, 250, 461 and 1884 points of
 * interest in XML, JSON and Protocol Buffers, to set our size ratios beside theirs.
 */
final class MobileStudyTable1 {

    static final List<Integer> POIS = List.of(1, 250, 461, 1884);
    static final double[] XML_KB = {1, 253, 375, 1875};
    static final double[] JSON_KB = {0.779, 227, 313, 1564};
    static final double[] PROTOBUF_KB = {0.665, 195, 256, 1276};

    private MobileStudyTable1() {}

    /** Index of this set size in the table, or -1 if the study did not have it. */
    static int indexOf(int pois) {
        return POIS.indexOf(pois);
    }
}
