package org.salgate.plugin.spi;

/** A plugin cannot do what was asked; the message says what and why. */
public class PluginException extends Exception {
    private static final long serialVersionUID = 1L;

    public PluginException(String message) {
        super(message);
    }

    public PluginException(String message, Throwable cause) {
        super(message, cause);
    }
}
