package org.salgate.sensorml;

/** Reads and writes a platform configuration (PCML). */
public final class Pcml {

    private Pcml() {}

    /** The XML document for {@code value}. */
    public static String write(PlatformConfig value) {
        throw new UnsupportedOperationException("TODO: Pcml.write is being written");
    }

    /**
     * Parses and validates a document.
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static PlatformConfig read(String xml) throws DocumentException {
        throw new UnsupportedOperationException("TODO: Pcml.read is being written");
    }
}
