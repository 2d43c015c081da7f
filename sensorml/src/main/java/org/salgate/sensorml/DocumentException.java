package org.salgate.sensorml;

/**
 * A SensorML, CML or PCML document is malformed or invalid. The message says what is wrong and
 * where: the element and, when known, the line and column.
 */
public class DocumentException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    public DocumentException(String message, int line, int column, Throwable cause) {
        super(message + (line > 0 ? " (line " + line + (column > 0 ? ", column " + column : "") + ")" : ""), cause);
        this.line = line;
        this.column = column;
    }

    public DocumentException(String message) {
        this(message, -1, -1, null);
    }

    /** The line of the problem, or -1 when unknown. */
    public int line() {
        return line;
    }

    /** The column of the problem, or -1 when unknown. */
    public int column() {
        return column;
    }
}
