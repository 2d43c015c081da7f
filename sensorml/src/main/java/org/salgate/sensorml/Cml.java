package org.salgate.sensorml;

/** Reads and writes a sensor's command list (CML). */
public final class Cml {

    private Cml() {}

    /** The XML document for {@code value}. */
    public static String write(java.util.List<CommandDescription> value) {
        throw new UnsupportedOperationException("TODO: Cml.write is being written");
    }

    /**
     * Parses and validates a document.
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static java.util.List<CommandDescription> read(String xml) throws DocumentException {
        throw new UnsupportedOperationException("TODO: Cml.read is being written");
    }
}
