package org.salgate.sensorml;

/** Reads and writes a sensor's SensorML 2.0 PhysicalComponent. */
public final class SensorMl {

    private SensorMl() {}

    /** The XML document for {@code value}. */
    public static String write(SensorDescription value) {
        throw new UnsupportedOperationException("TODO: SensorMl.write is being written");
    }

    /**
     * Parses and validates a document.
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static SensorDescription read(String xml) throws DocumentException {
        throw new UnsupportedOperationException("TODO: SensorMl.read is being written");
    }
}
