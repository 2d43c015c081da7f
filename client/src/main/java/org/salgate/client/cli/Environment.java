package org.salgate.client.cli;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The environment variables that give options their defaults: a variable set and not blank is the
 * value of its option unless the command line gives the option. A value the option's converter
 * refuses, or that names no transport or codec here, is reported under the variable's name, since
 * the user gave no option.
 */
final class Environment implements CommandLine.IDefaultValueProvider {

    /** The variables, by the option whose default each gives, in the order the help lists them. */
    static final Map<String, String> VARIABLES = variables();

    private final Map<String, String> environment;
    /** The options that took their value from a variable in this run, with the variable. */
    private final Map<String, String> used = new ConcurrentHashMap<>();

    Environment(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    private static Map<String, String> variables() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("--host", "SALGATE_HOST");
        v.put("--port", "SALGATE_PORT");
        v.put("--transport", "SALGATE_TRANSPORT");
        v.put("--codec", "SALGATE_CODEC");
        v.put("--token", "SALGATE_TOKEN");
        return Collections.unmodifiableMap(v);
    }

    /** Picocli asks this only for the options the command line does not give. */
    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String variable = VARIABLES.get(option.longestName());
        String value = variable == null ? null : environment.get(variable);
        if (value == null || value.isBlank()) {
            return null;
        }
        value = value.trim();
        for (CommandLine.ITypeConverter<?> converter : option.converters()) {
            if (converter instanceof ExpectedValue expected) {
                try {
                    converter.convert(value);
                } catch (Exception e) {
                    throw new CommandLine.ParameterException(option.command().commandLine(),
                            invalid(variable, value, "not " + expected.expected()), option, value);
                }
            }
        }
        used.put(option.longestName(), variable);
        return value;
    }

    /**
     * Checks that an option's value is one of {@code known} ({@code what}: "transport", "codec")
     * when it came from a variable, saying so under the variable's name; a value given on the
     * command line is left to the code that uses it, which names the option.
     *
     * @throws IllegalArgumentException for an unknown value from a variable
     */
    void checkKnown(String option, String value, Collection<String> known, String what) {
        String variable = used.get(option);
        if (variable != null && !known.contains(value)) {
            throw new IllegalArgumentException(invalid(variable, value, "not a " + what + " here; available: "
                    + String.join(", ", known)));
        }
    }

    private static String invalid(String variable, String value, String why) {
        return "invalid " + variable + " '" + value + "': " + why;
    }

    /** The help's line about the variables. */
    static String help() {
        return "Environment: " + list(VARIABLES.values()) + ", when set, are the defaults of "
                + list(VARIABLES.keySet()) + ".";
    }

    private static String list(Collection<String> words) {
        List<String> all = List.copyOf(words);
        return String.join(", ", all.subList(0, all.size() - 1)) + " and " + all.get(all.size() - 1);
    }
}
