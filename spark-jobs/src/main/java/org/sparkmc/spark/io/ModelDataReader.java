package org.sparkmc.spark.io;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Reader;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * Reads a model's data file — a JSON object of numbers and arrays, as Stan and posteriordb write them — through
 * Hadoop's FileSystem, so a data path may be local, hdfs:// or s3a://.
 */
public final class ModelDataReader {
    private ModelDataReader() {
    }

    /**
     * A data file's fields, and where each one's value begins ({@code file:line}), for messages about it.
     *
     * @param fields numbers, and lists of them, by name
     * @param lines  {@code location:line} by name
     */
    public record ModelData(Map<String, Object> fields, Map<String, String> lines) {
    }

    /** The fields of the data file at {@code location}. */
    public static Map<String, Object> read(String location, Configuration hadoopConf) {
        return readWithLines(location, hadoopConf).fields();
    }

    /** The fields of the data file at {@code location}, with the line each one's value begins on. */
    public static ModelData readWithLines(String location, Configuration hadoopConf) {
        Path path = UserPaths.path("--data", location);
        try {
            try (Reader reader = TextFiles.reader(path, hadoopConf)) {
                ConfigParseOptions options = ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON)
                        .setOriginDescription(location);
                ConfigObject root = ConfigFactory.parseReader(reader, options).root();
                Map<String, String> lines = new LinkedHashMap<>();
                root.forEach((name, value) -> {
                    requireFinite(location, "'" + name, value);
                    lines.put(name, location + ":" + value.origin().lineNumber());
                });
                return new ModelData(new LinkedHashMap<>(root.unwrapped()), lines);
            }
        } catch (FileNotFoundException e) {
            boolean directory;
            try {
                directory = path.getFileSystem(hadoopConf).getFileStatus(path).isDirectory();
            } catch (IOException notThere) {
                directory = false;
            }
            throw new InvalidInputException("model data file '" + location + "' " + (directory
                    ? "is a directory; give the JSON file" : "does not exist"));
        } catch (ConfigException e) {
            throw new InvalidInputException("model data file is not a valid JSON object: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read model data file '" + location + "': " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a number beyond the range of a double (JSON's 1e999 parses as infinity, which a model would only
     * report later as a log density without a finite starting point), naming the field, element and line.
     *
     * @param path the field as written so far: an opening quote, its name and any [index] after it
     */
    private static void requireFinite(String location, String path, ConfigValue value) {
        if (value instanceof ConfigList list) {
            for (int i = 0; i < list.size(); i++) {
                requireFinite(location, path + "[" + (i + 1) + "]", list.get(i));
            }
        } else if (value instanceof ConfigObject object) {
            object.forEach((name, v) -> requireFinite(location, path + "." + name, v));
        } else if (value.unwrapped() instanceof Number n && !Double.isFinite(n.doubleValue())) {
            throw new InvalidInputException("model data file " + location + " line " + value.origin().lineNumber()
                    + ": " + path + "' is " + (n.doubleValue() > 0 ? "" : "minus ") + "infinity (a number beyond "
                    + "±1.8e308); model data must be finite numbers");
        }
    }
}
