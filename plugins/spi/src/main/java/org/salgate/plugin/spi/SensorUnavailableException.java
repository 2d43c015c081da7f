package org.salgate.plugin.spi;

/** The machine cannot give this value (for example no temperature probe on a VM); not a failure. */
public class SensorUnavailableException extends PluginException {
    private static final long serialVersionUID = 1L;

    public SensorUnavailableException(String reason) {
        super(reason);
    }
}
