/*
 * Minimal launcher for a real single-node OpenSearch, started in-JVM from jars
 * fetched off Maven Central (see ../pom.xml and ../start.sh).
 *
 * The official integ-test-zip only ships the transport modules, so instead of a
 * distribution we run org.opensearch.node.Node directly with the modules the
 * product needs registered as classpath plugins (2.x name / 3.x name):
 *   - Netty4Plugin / Netty4ModulePlugin   (transport-netty4: HTTP + transport)
 *   - MustachePlugin / MustacheModulePlugin (lang-mustache: _search/template, ...)
 *   - CommonAnalysisPlugin / CommonAnalysisModulePlugin (english / russian / cjk ...)
 *   - ReindexPlugin / ReindexModulePlugin (_reindex, _update_by_query, _delete_by_query)
 *
 * One source for OpenSearch 2.19 and 3.x: the plugin classes are looked up by
 * name, and Node's protected constructor (Environment, Collection, boolean) is
 * called by reflection. 2.x wants the plugin classes in that collection, 3.x
 * wants a PluginInfo per plugin (what the 3.x test framework's MockNode passes).
 *
 * Usage: java -cp 'lib/*:classes' VibeNode <path.home> [-Ekey=value ...]
 * Settings come from <path.home>/config/opensearch.yml (written by start.sh),
 * then the -E overrides. Logging is configured from
 * <path.home>/config/log4j2.properties (logs go to path.logs).
 */

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.opensearch.Version;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.PluginInfo;

public final class VibeNode {

    /** {3.x class name, 2.x class name} of each module the product needs. */
    static final String[][] PLUGINS = {
        {"org.opensearch.transport.Netty4ModulePlugin", "org.opensearch.transport.Netty4Plugin"},
        {"org.opensearch.script.mustache.MustacheModulePlugin", "org.opensearch.script.mustache.MustachePlugin"},
        {"org.opensearch.analysis.common.CommonAnalysisModulePlugin",
            "org.opensearch.analysis.common.CommonAnalysisPlugin"},
        {"org.opensearch.index.reindex.ReindexModulePlugin", "org.opensearch.index.reindex.ReindexPlugin"},
    };

    static Class<?> pluginClass(String[] names) throws ClassNotFoundException {
        for (String name : names) {
            try {
                return Class.forName(name);
            } catch (ClassNotFoundException e) {
                // the other line's name
            }
        }
        throw new ClassNotFoundException("none of " + String.join(", ", names) + " is on the classpath");
    }

    /** A node with the PLUGINS as classpath plugins, through Node's protected constructor. */
    static Node newNode(Environment env) throws Exception {
        Constructor<Node> ctor = Node.class.getDeclaredConstructor(Environment.class, Collection.class, boolean.class);
        Type arg = ((ParameterizedType) ctor.getGenericParameterTypes()[1]).getActualTypeArguments()[0];
        boolean wantsInfos = arg == PluginInfo.class;   // 3.x; 2.x: Class<? extends Plugin>
        List<Object> plugins = new ArrayList<>();
        for (String[] names : PLUGINS) {
            Class<?> c = pluginClass(names);
            plugins.add(wantsInfos ? pluginInfo(c) : c);
        }
        ctor.setAccessible(true);
        return ctor.newInstance(env, plugins, true);
    }

    /** 3.x: PluginInfo(name, description, version, opensearchVersion, javaVersion, classname, extended, native). */
    static Object pluginInfo(Class<?> c) throws Exception {
        return PluginInfo.class
            .getConstructor(String.class, String.class, String.class, Version.class, String.class, String.class,
                List.class, boolean.class)
            .newInstance(c.getName(), "classpath plugin", "NA", Version.CURRENT,
                System.getProperty("java.specification.version"), c.getName(), Collections.emptyList(), false);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: VibeNode <path.home> [-Ekey=value ...]");
            System.exit(2);
        }
        Path home = Paths.get(args[0]).toAbsolutePath().normalize();
        Settings.Builder input = Settings.builder().put("path.home", home.toString());
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("-E") || a.indexOf('=') < 0) {
                System.err.println("bad argument (want -Ekey=value): " + a);
                System.exit(2);
            }
            int eq = a.indexOf('=');
            input.put(a.substring(2, eq), a.substring(eq + 1));
        }

        Path configDir = home.resolve("config");
        Files.createDirectories(configDir);
        Environment env = InternalSettingsPreparer.prepareEnvironment(
            input.build(), Collections.emptyMap(), configDir,
            () -> System.getProperty("vibe.os.node.name", "vibe-node-1"));

        // the node name must be known before log4j parses the %node_name converter
        LogConfigurator.setNodeName(Node.NODE_NAME_SETTING.get(env.settings()));
        LogConfigurator.registerErrorListener();
        LogConfigurator.configure(env);

        final Node node;
        try {
            node = newNode(env);
        } catch (Throwable t) {
            fail("node failed to initialize", t);
            return;
        }
        final CountDownLatch keepAlive = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                keepAlive.countDown();
                LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
                ctx.stop();
            }
        }, "vibe-node-shutdown"));

        try {
            node.start();
        } catch (Throwable t) {
            fail("node failed to start", t);
        }
        System.out.println("vibe-opensearch: node started, pid " + ProcessHandle.current().pid()
            + ", logs in " + env.settings().get("path.logs", home.resolve("logs").toString()));
        System.out.flush();
        keepAlive.await();
    }

    private static void fail(String what, Throwable t) {
        LogManager.getLogger(VibeNode.class).error(what, t);
        // exit even if the half-built node left non-daemon threads behind
        Runtime.getRuntime().halt(1);
    }
}
