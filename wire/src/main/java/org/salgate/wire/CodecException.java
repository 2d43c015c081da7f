package org.salgate.wire;

/** The bytes received are not a valid message in the codec in use. */
public class CodecException extends Exception {
    private static final long serialVersionUID = 1L;

    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
