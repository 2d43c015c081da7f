package org.salgate.client.cli;

import picocli.CommandLine;

/**
 * A converter that says what it expects: a value it refuses is reported as {@code --option: 'value'
 * is not <expected>} from the command line and as {@code invalid VARIABLE 'value': not <expected>}
 * from the environment ({@link Environment}).
 */
interface ExpectedValue {

    /** What a value must be, such as "a port number (1-65535)". */
    String expected();

    /** The failure for a value that is not what {@link #expected()} says. */
    default CommandLine.TypeConversionException refuse(String value) {
        return new CommandLine.TypeConversionException("'" + value + "' is not " + expected());
    }
}
