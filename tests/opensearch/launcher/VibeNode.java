/*
 * Minimal launcher for a real single-node OpenSearch, started in-JVM from jars
 * fetched off Maven Central (see ../pom.xml and ../start.sh).
 *
 * The official integ-test-zip only ships the transport modules, so instead of a
 * distribution we run org.opensearch.node.Node directly with the modules the
 * product needs registered as classpath plugins:
 *   - Netty4Plugin          (transport-netty4: HTTP on 127.0.0.1:9200 + transport)
 *   - MustachePlugin        (lang-mustache: _search/template, _render/template, ...)
 *   - CommonAnalysisPlugin  (analysis-common: english / russian / cjk analyzers ...)
 *   - ReindexPlugin         (reindex: _reindex, _update_by_query, _delete_by_query)
 *
 * Usage: java -cp 'lib/*:classes' VibeNode <path.home> [-Ekey=value ...]
 * Settings come from <path.home>/config/opensearch.yml (written by start.sh),
 * then the -E overrides. Logging is configured from
 * <path.home>/config/log4j2.properties (logs go to path.logs).
 */

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.script.mustache.MustachePlugin;
import org.opensearch.transport.Netty4Plugin;

public final class VibeNode {

    /** Node's constructor that accepts classpath plugins is protected. */
    static final class PluginNode extends Node {
        PluginNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
            super(env, plugins, true);
        }
    }

    static final List<Class<? extends Plugin>> PLUGINS =
        Arrays.asList(
            Netty4Plugin.class, MustachePlugin.class, CommonAnalysisPlugin.class, ReindexPlugin.class);

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
            node = new PluginNode(env, PLUGINS);
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
            + ", logs in " + env.logsFile());
        System.out.flush();
        keepAlive.await();
    }

    private static void fail(String what, Throwable t) {
        LogManager.getLogger(VibeNode.class).error(what, t);
        // exit even if the half-built node left non-daemon threads behind
        Runtime.getRuntime().halt(1);
    }
}
