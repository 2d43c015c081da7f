package org.salgate.agent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The agent's options from every source, in precedence: the command line, then the environment
 * ({@code SALGATE_} and the option's name in upper snake case), then the configuration file and its
 * fragments (a later fragment wins; a list replaces), then the defaults.
 *
 * <p>The file and the environment are turned into command-line arguments put before the command
 * line's own, for the options the command line does not give: picocli then converts and checks
 * every value the same way whatever its source, and a repeatable option (a list, a map) takes
 * its values one by one, which a default value provider's single string cannot do for the options
 * without a split character ({@code --plugin-dir}, {@code --mqtt-stream}, {@code --transport-property}).
 * Each value is first parsed on its own, so that a wrong one is said with the file and line it is on.
 */
final class Settings {

    static final String ENV_PREFIX = "SALGATE_";
    /** Where an option given on the command line comes from. */
    static final String COMMAND_LINE = "the command line";
    /** Options only the command line gives: actions, and where the configuration is. */
    static final Set<String> COMMAND_LINE_ONLY = Set.of("help", "version", "list-transports", "config-file",
            "config-dir", "check", "print-config");
    /** Options naming a file whose content is a secret: the file must not be readable by every user. */
    static final Set<String> SECRET_FILES = Set.of("tokens", "mqtt-password-file", "tls-key", "influx-token-file",
            "influx-password-file");
    /** Path options naming what the agent creates, so need not exist beforehand. */
    static final Set<String> CREATED = Set.of("state-dir", "mqtt-store", "influx-store");

    private static final Pattern OPTION_IN_MESSAGE = Pattern.compile("--([a-z][a-z0-9-]*)");
    private static final Pattern PICOCLI_PREFIX = Pattern.compile("^Invalid value for option '[^']+': ");

    private final List<String> arguments = new ArrayList<>();
    private final Map<String, String> origins = new LinkedHashMap<>();
    private final List<Path> files = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private Settings() {}

    /** The key of an option in a file: its long name without the dashes. */
    static String key(OptionSpec option) {
        return option.longestName().substring(2);
    }

    /** The environment variable of a key: {@code mqtt-url} is {@code SALGATE_MQTT_URL}. */
    static String environmentVariable(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** The options a file or the environment may set, by key, in the order of {@code --help}. */
    static Map<String, OptionSpec> configurable(CommandSpec spec) {
        Map<String, OptionSpec> options = new LinkedHashMap<>();
        for (OptionSpec option : spec.options()) {
            String key = key(option);
            if (!COMMAND_LINE_ONLY.contains(key)) {
                options.put(key, option);
            }
        }
        return options;
    }

    /**
     * Gathers the options of every source.
     *
     * @param commandLine what the command line gave (its own options win)
     * @param configFile the main file, or null
     * @param configDir the directory of fragments read after it, or null
     */
    static Settings gather(CommandSpec spec, ParseResult commandLine, Map<String, String> environment,
                           Path configFile, Path configDir) {
        Settings s = new Settings();
        Map<String, OptionSpec> options = configurable(spec);
        Map<String, ConfigFile.Entry> fromFiles = new LinkedHashMap<>();
        if (configFile != null) {
            s.files.add(configFile);
        }
        if (configDir != null && !Files.isDirectory(configDir)) {
            s.problems.add("the configuration directory " + configDir + " is not a directory; create it or correct"
                    + " the path");
        } else if (configDir != null) {
            s.files.addAll(ConfigFile.fragments(configDir, s.problems));
        }
        for (Path file : s.files) {
            for (ConfigFile.Entry entry : ConfigFile.read(file, s.problems)) {
                if (COMMAND_LINE_ONLY.contains(entry.key())) {
                    s.problems.add("'" + entry.key() + "' at " + entry.where() + " is for the command line only;"
                            + " remove it from the file");
                } else if (!options.containsKey(entry.key())) {
                    s.problems.add(unknownKey(entry.key(), entry.where(), options.keySet()));
                } else if (entry.value().isNull()) {
                    fromFiles.remove(entry.key()); // an empty value puts the default back
                } else {
                    fromFiles.put(entry.key(), entry);
                }
            }
        }
        for (Map.Entry<String, OptionSpec> o : options.entrySet()) {
            String key = o.getKey();
            OptionSpec option = o.getValue();
            if (commandLine.hasMatchedOption(option)) {
                s.origins.put(key, COMMAND_LINE);
                continue;
            }
            String variable = environmentVariable(key);
            String env = environment.get(variable);
            List<String> args;
            String origin;
            if (env != null) {
                origin = "environment variable " + variable;
                args = s.fromEnvironment(option, env, origin);
            } else if (fromFiles.containsKey(key)) {
                ConfigFile.Entry entry = fromFiles.get(key);
                origin = entry.where();
                args = s.fromFile(option, entry);
                if (EffectiveConfig.MASKED_URLS.contains(key) && worldReadable(entry.file())
                        && !maskPassword(entry.value().asText()).equals(entry.value().asText())) {
                    s.warnings.add("warning: " + entry.file() + " holds a password ('" + key + "' at " + origin
                            + ") and every user of this machine can read it; chmod o-rwx " + entry.file());
                }
            } else {
                continue;
            }
            if (args != null && s.accepts(spec, key, args, origin)) {
                s.origins.put(key, origin);
                s.arguments.addAll(args);
                s.checkFiles(option, args, origin);
            }
        }
        s.arguments.addAll(commandLine.originalArgs());
        return s;
    }

    /** The arguments of an environment variable's value; null, said in problems, when it cannot be one. */
    private List<String> fromEnvironment(OptionSpec option, String value, String origin) {
        String name = option.longestName();
        if (option.arity().max() == 0) {
            if (value.equalsIgnoreCase("true")) {
                return List.of(name);
            }
            if (value.equalsIgnoreCase("false") || value.isEmpty()) {
                return List.of();
            }
            problems.add("wrong value '" + value + "' in the " + origin + ": write true or false");
            return null;
        }
        if (option.isMultiValue()) {
            return Arrays.stream(value.split(",")).map(String::trim).filter(v -> !v.isEmpty())
                    .map(v -> name + "=" + v).toList();
        }
        return List.of(name + "=" + value);
    }

    /** The arguments of a file's value; null, said in problems, when it has the wrong shape. */
    private List<String> fromFile(OptionSpec option, ConfigFile.Entry entry) {
        String name = option.longestName();
        JsonNode value = entry.value();
        String at = "'" + entry.key() + "' at " + entry.where();
        if (option.arity().max() == 0) {
            if (value.isBoolean() || value.isTextual() && value.asText().matches("(?i)true|false")) {
                return value.asText().equalsIgnoreCase("true") ? List.of(name) : List.of();
            }
            problems.add("wrong value for " + at + ": write true or false");
            return null;
        }
        if (option.typeInfo().isMap()) {
            if (value.isObject()) {
                List<String> args = new ArrayList<>();
                for (Map.Entry<String, JsonNode> e : value.properties()) {
                    if (!e.getValue().isValueNode()) {
                        problems.add("wrong value for " + at + ": '" + e.getKey() + "' must be a single value");
                        return null;
                    }
                    args.add(name + "=" + e.getKey() + "=" + e.getValue().asText());
                }
                return args;
            }
            problems.add("wrong value for " + at + ": write a mapping of names to values, one per line"
                    + " (NAME: VALUE, indented under the key)");
            return null;
        }
        if (value.isArray()) {
            if (!option.isMultiValue()) {
                problems.add("wrong value for " + at + ": it takes one value, not a list");
                return null;
            }
            List<String> args = new ArrayList<>();
            for (JsonNode element : value) {
                if (!element.isValueNode()) {
                    problems.add("wrong value for " + at + ": each element of the list must be a single value");
                    return null;
                }
                args.add(name + "=" + element.asText());
            }
            return args;
        }
        if (!value.isValueNode()) {
            problems.add("wrong value for " + at + ": it takes " + (option.isMultiValue() ? "a value or a list"
                    : "one value") + ", not a mapping");
            return null;
        }
        return List.of(name + "=" + value.asText());
    }

    /** Whether picocli takes the arguments of one option; says why not in problems. */
    private boolean accepts(CommandSpec spec, String key, List<String> args, String origin) {
        try {
            new CommandLine(spec.userObject().getClass().getDeclaredConstructor().newInstance())
                    .parseArgs(args.toArray(String[]::new));
            return true;
        } catch (CommandLine.ParameterException e) {
            // a converter's own sentence (a policy's names) says more than picocli's wrapping of it
            Throwable cause = e.getCause();
            String why = cause instanceof IllegalArgumentException && !(cause instanceof NumberFormatException)
                    && cause.getMessage() != null ? cause.getMessage()
                    : PICOCLI_PREFIX.matcher(String.valueOf(e.getMessage())).replaceFirst("");
            problems.add("wrong value for '" + key + "' at " + origin + ": " + why);
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make the command to check an option with", e);
        }
    }

    /** Refuses a named file that does not exist; warns when a secret file is readable by every user. */
    private void checkFiles(OptionSpec option, List<String> args, String origin) {
        Class<?> type = option.isMultiValue() && option.auxiliaryTypes().length > 0 ? option.auxiliaryTypes()[0]
                : option.type();
        String key = key(option);
        if (type != Path.class || CREATED.contains(key)) {
            return;
        }
        for (String arg : args) {
            Path path = Path.of(arg.substring(arg.indexOf('=') + 1));
            if (!Files.exists(path)) {
                problems.add("'" + key + "' at " + origin + " names " + path + ", which does not exist;"
                        + " create it or correct the path");
            } else if (SECRET_FILES.contains(key) && worldReadable(path)) {
                warnings.add("warning: " + path + " ('" + key + "' at " + origin + ") holds a secret and every"
                        + " user of this machine can read it; chmod o-rwx " + path);
            }
        }
    }

    static boolean worldReadable(Path path) {
        try {
            return Files.getPosixFilePermissions(path).contains(PosixFilePermission.OTHERS_READ);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The nearest known key, when one is near enough to be a typing mistake. */
    static String unknownKey(String key, String where, Set<String> known) {
        String nearest = known.stream().min(Comparator.comparingInt(k -> distance(key, k))).orElse(null);
        String message = "unknown key '" + key + "' at " + where;
        if (nearest != null && distance(key, nearest) <= Math.max(2, key.length() / 3)) {
            return message + "; did you mean '" + nearest + "'?";
        }
        return message + "; the keys are the long options of --help without the dashes";
    }

    /** Levenshtein's edit distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** The arguments to run with: the file's and the environment's, then the command line's. */
    List<String> arguments() {
        return arguments;
    }

    /** What cannot be used, a line each naming where it is; empty when all is well. */
    List<String> problems() {
        return problems;
    }

    /** What can be used but should be fixed, a line each. */
    List<String> warnings() {
        return warnings;
    }

    /** The files read, in order. */
    List<Path> files() {
        return files;
    }

    /** Where each option set by a source came from (FILE:LINE, environment variable, the command line). */
    Map<String, String> origins() {
        return origins;
    }

    /**
     * A message about an option with where that option was set added, unless the command line set
     * it (the operator then sees it already).
     */
    String locate(String message) {
        Matcher m = OPTION_IN_MESSAGE.matcher(message);
        while (m.find()) {
            String origin = origins.get(m.group(1));
            if (origin != null) {
                return origin.equals(COMMAND_LINE) ? message : message + " (" + m.group(1) + " at " + origin + ")";
            }
        }
        return message;
    }

    /** A URL with the password of its user information masked. */
    static String maskPassword(String url) {
        try {
            URI uri = URI.create(url);
            String user = uri.getRawUserInfo();
            if (user != null && user.contains(":")) {
                return url.replace(user + "@", user.substring(0, user.indexOf(':')) + ":****@");
            }
        } catch (IllegalArgumentException e) {
            // not a URL: nothing to mask
        }
        return url;
    }
}
