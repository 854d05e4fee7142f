import PermMediaIcon from '@mui/icons-material/PermMedia';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Title, useTranslate } from 'react-admin';

/**
 * /media until the media library (issue 4, admin/src/media/) lands: an honest placeholder, not a fake screen.
 * Replace the /media route in AdminApp.tsx with the real screen.
 */
export default function MediaComingSoon() {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('ls.media.title')} />
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <Box sx={{ color: 'text.secondary', mb: 1 }}>
          <PermMediaIcon sx={{ fontSize: 48 }} />
        </Box>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('ls.media.coming_soon')}
        </Typography>
        <Typography color="text.secondary">{translate('ls.media.coming_soon_text')}</Typography>
      </CardContent>
    </Card>
  );
}
