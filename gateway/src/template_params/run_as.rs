//! How a stored template is run with its params: [`TemplateParams`].

use serde::Serialize;

use super::*;

/// The params of a stored template, and how OpenSearch is to run it.
pub trait TemplateParams: Serialize {
    /// Whether the words are scored on the term statistics of every index
    /// searched (`search_type=dfs_query_then_fetch`): a question in words
    /// over several projects, each index of which has its own IDF, so that
    /// scores compare across projects.
    fn scored_across_indices(&self) -> bool {
        false
    }
}

impl<T: TemplateParams> TemplateParams for &T {
    fn scored_across_indices(&self) -> bool {
        (**self).scored_across_indices()
    }
}

impl TemplateParams for CodeParams<'_> {
    fn scored_across_indices(&self) -> bool {
        self.question
    }
}

impl TemplateParams for DocumentationParams {}
impl TemplateParams for ImportsParams<'_> {}
impl TemplateParams for ReferencesParams<'_> {}
impl TemplateParams for CalleesParams<'_> {}
impl TemplateParams for FileParams<'_> {}
impl TemplateParams for ProjectsParams {}
impl TemplateParams for StatsParams {}
impl TemplateParams for TreeParams<'_> {}
impl TemplateParams for TextParams<'_> {}
impl TemplateParams for DefinitionsParams<'_> {}
impl TemplateParams for ValuesParams<'_> {}
