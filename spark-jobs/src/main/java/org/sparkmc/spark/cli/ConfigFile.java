package org.sparkmc.spark.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.io.Utf8Lines;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A job's configuration file (HOCON, e.g. {@code conf/chains-bimodal.conf}): its keys are the job's long option
 * names without dashes, and supply the defaults that command-line options override. Keys that name no option are
 * an error with the file and line; an include names a file relative to the including one and must exist. Every file
 * read must be UTF-8 (else an error with its line and column), and the included files count as the run's inputs,
 * which an {@code --overwrite} never deletes. Two lists side by side on one line ({@code [1, 1] [0, 1]}, which HOCON
 * joins into one) and a word after a list or an object on its line ({@code [1] x}, which HOCON drops) are an error
 * with the file, line and column ({@link TextAfterLists}). A relative
 * path in the file (the value of an option whose parameter is a {@code PATH}, {@code DIR} or {@code FILE}) is
 * resolved against the directory of the file that writes it (an included file's own), as HOCON resolves includes;
 * absolute paths and URIs with a scheme ({@code hdfs://}, {@code s3a://}, {@code file:/}) are kept as written (a
 * {@code :} elsewhere, {@code out = "run-10:00"}, is part of a relative path). A value is passed on as written: a
 * number keeps its text ({@code out = 007}; {@code warmup = 10.0} is no int, as on the command line), and a key set
 * to {@code null} is an error, not the option's default.
 */
public final class ConfigFile implements CommandLine.IDefaultValueProvider {
    /** The option that names the file. */
    public static final String OPTION = "--conf";

    /** Parameter labels of the options whose values are paths. */
    private static final Set<String> PATH_LABELS = Set.of("PATH", "DIR", "FILE");
    /** A URI scheme such as {@code hdfs:}, {@code s3a:} or {@code file:} (two letters at least, so not a drive). */
    /**
     * A URI with a scheme, {@code hdfs://…}, {@code s3a://…}, {@code file:/…}: the scheme and a {@code :/}, as
     * {@code UserPaths} takes one on the command line; {@code run-2026-12-03T10:00} is a relative path.
     */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:/");
    /** The option a bad-input message begins with ("--warmup must be ≥ 0, is -5"). */
    private static final Pattern LEADING_OPTION = Pattern.compile("(--[a-z0-9-]+)\\b");

    private final String location;
    private final Config config;
    /** The files the main file includes, directly or not, as {@code file:} URIs (inputs of the run). */
    private final List<String> included;
    /** The keys whose values this file has handed to picocli as option defaults. */
    private final Set<String> supplied = new HashSet<>();

    private ConfigFile(String location, Config config, List<String> included) {
        this.location = location;
        this.config = config;
        this.included = List.copyOf(included);
    }

    /** No file: every option takes its built-in default. */
    public static ConfigFile none() {
        return new ConfigFile(null, ConfigFactory.empty(), List.of());
    }

    public static ConfigFile load(String location) {
        File file = new File(location);
        if (!file.isFile()) {
            throw new InvalidInputException("config file '" + location + "' does not exist or is not a file");
        }
        if (!file.canRead()) {
            throw new InvalidInputException("config file '" + location + "' is not readable");
        }
        try {
            List<String> included = new ArrayList<>();
            Config config = parse(file, 0, included).resolve();
            return new ConfigFile(location, config, included);
        } catch (ConfigException e) {
            throw new InvalidInputException("malformed config file: " + e.getMessage(), e);
        }
    }

    private static Config parse(File file, int depth, List<String> included) {
        byte[] bytes = read(file);
        checkUtf8(file, bytes);
        TextAfterLists.checkFile(file.getPath(), new String(bytes, StandardCharsets.UTF_8));
        return ConfigFactory.parseFile(file, ConfigParseOptions.defaults().setAllowMissing(false)
                .setIncluder(new FileIncluder(file, depth, included)));
    }

    private static byte[] read(File file) {
        try {
            return Files.readAllBytes(file.toPath());
        } catch (IOException e) {
            throw new InvalidInputException("config file '" + file + "' cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a file that is not UTF-8, naming its line and column: HOCON would read such bytes as U+FFFD and pass a
     * garbled value on (a byte-order mark is valid UTF-8, and HOCON drops it).
     */
    private static void checkUtf8(File file, byte[] bytes) {
        Utf8Lines lines = new Utf8Lines("config file '" + file + "'");
        int start = 0;
        long line = 1;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                lines.check(bytes, start, i - start, line++);
                start = i + 1;
            }
        }
    }

    /**
     * Reads {@code include "x.conf"} and {@code include required("x.conf")} alike as the file x.conf in the including
     * file's directory (or the absolute path given), and refuses one that does not exist: HOCON's own includer skips
     * a missing plain include silently and looks for a missing required one on the classpath, so a mistyped name
     * would go unnoticed or be reported as a classpath resource. {@code include url(…)} and {@code include
     * classpath(…)} are refused: a missing one was skipped silently too, and what they read is no file of the run's.
     */
    private record FileIncluder(File including, int depth, List<String> included)
            implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL, ConfigIncluderClasspath {
        private static final int MAX_DEPTH = 20;

        @Override
        public ConfigIncluder withFallback(ConfigIncluder fallback) {
            return this;
        }

        @Override
        public ConfigObject include(ConfigIncludeContext context, String what) {
            return includeFile(context, new File(what));
        }

        @Override
        public ConfigObject includeURL(ConfigIncludeContext context, java.net.URL what) {
            throw notAFile("url(\"" + what + "\")");
        }

        @Override
        public ConfigObject includeResources(ConfigIncludeContext context, String what) {
            throw notAFile("classpath(\"" + what + "\")");
        }

        private InvalidInputException notAFile(String include) {
            return new InvalidInputException("config file '" + including + "' has 'include " + include + "'; include "
                    + "a file by its path instead (include \"x.conf\", or file(\"x.conf\"), read from the including "
                    + "file's directory)");
        }

        @Override
        public ConfigObject includeFile(ConfigIncludeContext context, File what) {
            File target = what.isAbsolute() ? what : new File(including.getParentFile(), what.getPath());
            if (!target.isFile()) {
                throw new InvalidInputException("config file '" + including + "' includes '" + what + "', but '"
                        + target + "' does not exist or is not a file (an include is read from the including file's "
                        + "directory)");
            }
            if (depth == MAX_DEPTH) {
                throw new InvalidInputException("config file '" + including + "' includes '" + what + "' "
                        + MAX_DEPTH + " files deep; does a file include itself?");
            }
            included.add(target.getAbsoluteFile().toURI().toString());
            return parse(target, depth + 1, included).root();
        }
    }

    /** The file as a {@code file:} URI, or null without one. */
    public String location() {
        return location == null ? null : new File(location).getAbsoluteFile().toURI().toString();
    }

    /** The files the config file includes, directly or through other includes, as {@code file:} URIs. */
    public List<String> included() {
        return included;
    }

    /** The value of {@code --conf} in the arguments, if any. */
    public static String find(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(OPTION) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith(OPTION + "=")) {
                return args[i].substring(OPTION.length() + 1);
            }
        }
        return null;
    }

    /** A block of the file (e.g. {@code model-params}) as plain values, or empty. */
    public Map<String, Object> block(String key) {
        if (!config.hasPath(key)) {
            return Map.of();
        }
        try {
            return config.getConfig(key).root().unwrapped();
        } catch (ConfigException e) {
            throw new InvalidInputException(describe(key) + ": '" + key + "' must be a block { … }", e);
        }
    }

    /**
     * Fails on keys that are neither an option of the command nor one of {@code blocks}; {@code help}, {@code version}
     * and {@code conf} are command-line acts, not settings, and unknown in a file too.
     */
    public void checkKeys(CommandSpec spec, Set<String> blocks) {
        Set<String> known = new TreeSet<>(blocks);
        Set<String> listed = new TreeSet<>(blocks); // hidden options (old names that only explain the new) unlisted
        for (OptionSpec option : spec.options()) {
            if (option.usageHelp() || option.versionHelp() || option.longestName().equals(OPTION)) {
                continue; // a command-line act, not a setting: "conf = other.conf" in a file was silently ignored
            }
            known.add(stripDashes(option.longestName()));
            if (!option.hidden()) {
                listed.add(stripDashes(option.longestName()));
            }
        }
        for (Map.Entry<String, ConfigValue> entry : config.root().entrySet()) {
            if (!known.contains(entry.getKey())) {
                throw new InvalidInputException(describe(entry.getKey()) + ": unknown key '" + entry.getKey()
                        + "' for job '" + spec.name() + "'; known keys: " + listed);
            }
        }
    }

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option)) {
            return null;
        }
        String key = stripDashes(option.longestName());
        ConfigValue value = valueAt(key);
        if (value == null) {
            return null;
        }
        if (value.valueType() == ConfigValueType.NULL) {
            throw new InvalidInputException(describe(key) + ": '" + key + "' has no value (null); give it one, or "
                    + "remove the line for the option's default");
        }
        String text = value.valueType() == ConfigValueType.LIST ? joined(option, key)
                : isBoolean(option) ? bool(key) : scalar(key);
        SplitEntries.check(option, text, describe(key) + ": ");
        supplied.add(key);
        return PATH_LABELS.contains(option.paramLabel()) ? resolved(text, value.origin()) : text;
    }

    /** The value at {@code path}, a null one ({@code key = null}) included; null when the file does not set it. */
    private ConfigValue valueAt(String path) {
        ConfigValue value = config.root();
        for (String name : ConfigUtil.splitPath(path)) {
            if (!(value instanceof ConfigObject object) || object.get(name) == null) {
                return null;
            }
            value = object.get(name);
        }
        return value;
    }

    /**
     * A path from the file resolved against the main file's directory: unchanged when absolute, empty or a URI with
     * a scheme.
     */
    String resolved(String path) {
        return resolved(path, null);
    }

    /**
     * A path resolved against the directory of the file that wrote it ({@code origin}: an included file's own
     * directory), or the main file's when the origin names no single file; unchanged when absolute, empty or a URI.
     */
    private String resolved(String path, ConfigOrigin origin) {
        if (path.isEmpty() || SCHEME.matcher(path).find() || Paths.get(path).isAbsolute()) {
            return path;
        }
        String file = origin == null || origin.filename() == null ? location : origin.filename();
        return Paths.get(file).toAbsolutePath().getParent().resolve(path).normalize().toString();
    }

    private static boolean isBoolean(OptionSpec option) {
        return option.type() == boolean.class || option.type() == Boolean.class;
    }

    /** A boolean as HOCON reads one: true/false, yes/no or on/off (picocli knows only true and false). */
    private String bool(String key) {
        try {
            return String.valueOf(config.getBoolean(key));
        } catch (com.typesafe.config.ConfigException.WrongType e) {
            throw new InvalidInputException(describe(key) + ": '" + key + "' must be true or false (or yes/no, "
                    + "on/off), is " + config.getValue(key).render(), e);
        }
    }

    /**
     * A single value as the file writes it: a number keeps its text ({@code 007}, {@code 1.50}, {@code 10.0},
     * {@code 1e3}), which HOCON would normalise ({@code 7}, {@code 1.5}, {@code 10}, {@code 1000}); the option's
     * type then reads it as the command line would.
     */
    private String scalar(String key) {
        ConfigValue value = config.getValue(key);
        refuseNested(key, value);
        return config.getString(key);
    }

    private void refuseNested(String key, ConfigValue value) {
        if (value.valueType() == ConfigValueType.OBJECT || value.valueType() == ConfigValueType.LIST) {
            Object plain = value.unwrapped();
            boolean params = plain instanceof Map && key.equals("param"); // --param's form in a file is the block
            throw new InvalidInputException(describe(key) + ": '" + key + "' must be a single value, is " + plain
                    + (params ? "; a config file sets model parameters in a block '" + JobCommand.MODEL_PARAMS
                            + " { … }'" : ""));
        }
        if (value.valueType() == ConfigValueType.NULL) {
            throw new InvalidInputException(describe(key) + ": '" + key + "' has a list item with no value (null)");
        }
    }

    /**
     * A list for an option that takes several values ({@code query = [A, B]}, or {@code evidence = [A=a, B=b]} for
     * one whose value is comma-separated) as the one string picocli splits into them: the items, as written, joined
     * by the option's separator. An item that holds the separator (it would be split in two), a list for a
     * single-valued option, or of several items for an option with no separator, is an error with the file and line.
     */
    private String joined(OptionSpec option, String key) {
        List<? extends ConfigValue> list = config.getList(key);
        for (ConfigValue item : list) {
            refuseNested(key, item);
        }
        List<String> items = config.getStringList(key);
        String separator = option.isMultiValue() ? literal(option.splitRegex()) : commaList(option) ? "," : null;
        if (!option.isMultiValue() && separator == null) {
            throw new InvalidInputException(describe(key) + ": '" + key + "' takes a single value, not a list "
                    + items);
        }
        if (separator == null && items.size() > 1) {
            throw new InvalidInputException(describe(key) + ": '" + key + "' takes one value in a config file "
                    + "(repeat --" + key + " on the command line for more), not a list " + items);
        }
        for (String item : items) {
            if (separator != null && item.contains(separator)) {
                throw new InvalidInputException(describe(key) + ": '" + key + "' has the list item '" + item
                        + "', which holds the separator '" + separator + "' and would be read as several; give "
                        + "each value as an item of its own");
            }
        }
        return String.join(separator == null ? "" : separator, items);
    }

    /** A single-valued option whose value is a comma-separated list ({@code --evidence VAR=STATE,...}). */
    private static boolean commaList(OptionSpec option) {
        return !option.isMultiValue() && option.type() == String.class && option.paramLabel().contains(",");
    }

    /** The split regex as the literal text it matches, or null when it is empty or not a plain literal. */
    private static String literal(String regex) {
        return regex == null || regex.isEmpty() || !regex.matches("[^\\\\.\\[\\](){}*+?^$|]+") ? null : regex;
    }

    /**
     * Where this file set the value of {@code arg}, as {@code file:line: key = value}, when picocli took that value
     * from the file; null when it came from the command line (picocli asks for defaults only of options the command
     * line left out) or the argument is not an option.
     */
    public String origin(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String key = stripDashes(option.longestName());
        return supplied.contains(key) ? describe(key) + ": " + key + " = " + asWritten(key) : null;
    }

    /**
     * The file and line ({@code file:line}) that gave the value of the option a bad-input message is about (its
     * first word, {@code --name}) when picocli took that value from this file; null otherwise.
     */
    public String originOf(CommandSpec command, String message) {
        Matcher m = LEADING_OPTION.matcher(message == null ? "" : message);
        OptionSpec option = m.lookingAt() ? command.findOption(m.group(1)) : null;
        return option == null || origin(option) == null ? null : describe(stripDashes(option.longestName()));
    }

    /** The value of {@code key} as the file writes it: a number as written, a list of them too. */
    private String asWritten(String key) {
        ConfigValue value = config.getValue(key);
        try {
            return value.valueType() == ConfigValueType.LIST ? config.getStringList(key).toString()
                    : config.getString(key);
        } catch (ConfigException e) {
            return String.valueOf(value.unwrapped());
        }
    }

    /**
     * The file and line that set {@code key} ({@code file:line}; the file alone when its format keeps no lines, as
     * a {@code .properties} file), or the main file when the key is absent.
     */
    public String describe(String key) {
        ConfigValue value = valueAt(key);
        if (value != null) {
            var origin = value.origin();
            if (origin.filename() == null) {
                return location;
            }
            return origin.lineNumber() > 0 ? origin.filename() + ":" + origin.lineNumber() : origin.filename();
        }
        return location;
    }

    /**
     * The file and line that set {@code key} inside the block {@code block} (e.g. {@code model-params}), as
     * {@code file:line}, or the file when it cannot be found.
     */
    public String describeBlockKey(String block, String key) {
        try {
            return describe(ConfigUtil.joinPath(block, key));
        } catch (ConfigException e) {
            return location;
        }
    }

    private static String stripDashes(String name) {
        return name.replaceFirst("^-+", "");
    }
}
