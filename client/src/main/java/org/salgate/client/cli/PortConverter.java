package org.salgate.client.cli;

import picocli.CommandLine;

/** Reads a TCP port, 1 to 65535. */
final class PortConverter implements CommandLine.ITypeConverter<Integer>, ExpectedValue {

    @Override
    public String expected() {
        return "a port number (1-65535)";
    }

    @Override
    public Integer convert(String value) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw refuse(value);
    }
}
